/* One-shot command buffers: every operation records the device's one command
 * buffer, submits it and waits, so the ABI's calls are all blocking. */
#include "commands.h"

#include "devices.h"
#include "errors.h"

gh_status vkp_commands_begin(vkp_device *d)
{
    VKP_TRY(d->fn.vkResetCommandBuffer(d->cmd, 0), d->name);
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    VKP_TRY(d->fn.vkBeginCommandBuffer(d->cmd, &begin), d->name);
    return GH_OK;
}

gh_status vkp_commands_submit(vkp_device *d, const char *what)
{
    VKP_TRY(d->fn.vkEndCommandBuffer(d->cmd), what);
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &d->cmd,
    };
    VKP_TRY(d->fn.vkQueueSubmit(d->queue, 1, &submit, d->fence), what);
    /* No timeout: a large GEMM on a software device can take minutes, and
     * a hung GPU comes back as VK_ERROR_DEVICE_LOST. */
    VkResult r = d->fn.vkWaitForFences(d->dev, 1, &d->fence, VK_TRUE, UINT64_MAX);
    /* Reset even after a failed wait, so the next submit does not trip on a
     * signalled fence. */
    VkResult reset = d->fn.vkResetFences(d->dev, 1, &d->fence);
    if (r != VK_SUCCESS) return vkp_vk_fail(r, "vkWaitForFences", what);
    if (reset != VK_SUCCESS) return vkp_vk_fail(reset, "vkResetFences", what);
    return GH_OK;
}

gh_status vkp_synchronize(gh_plugin *ctx, int device)
{
    gh_status st = vkp_check_device(ctx, "synchronize", device);
    if (st != GH_OK) return st;
    vkp_device *d = &ctx->devices[device];
    if (!d->ready) return GH_OK; /* nothing was ever queued */
    VKP_TRY(d->fn.vkQueueWaitIdle(d->queue), "synchronize");
    return GH_OK;
}

void vkp_barrier(vkp_device *d, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                 VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
    VkMemoryBarrier barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = src_access,
        .dstAccessMask = dst_access,
    };
    d->fn.vkCmdPipelineBarrier(d->cmd, src_stage, dst_stage, 0, 1, &barrier, 0, NULL, 0, NULL);
}
